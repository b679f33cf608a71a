/* Recording stand-in for %SystemRoot%\System32\curl.exe under wine (wine 8 ships none).
   Appends "ARG <arg>" lines, then the stdin bytes, to %ORCA_TEST_CURL_LOG%; reads stdin to EOF. */
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  const char *log = getenv("ORCA_TEST_CURL_LOG");
  FILE *f = log ? fopen(log, "ab") : NULL;
  char buf[65536];
  size_t n, total = 0;
  _setmode(_fileno(stdin), _O_BINARY);
  if (f) {
    for (int i = 1; i < argc; i++) fprintf(f, "ARG %s\n", argv[i]);
    fprintf(f, "STDIN ");
  }
  while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) {
    total += n;
    if (f) fwrite(buf, 1, n, f);
  }
  if (f) {
    fprintf(f, "\nEND %zu\n", total);
    fclose(f);
  }
  return 0;
}
