/* Stand-in for %SystemRoot%\System32\more.com under wine: reads stdin to EOF, prints nothing. */
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
int main(void) {
  char buf[65536];
  _setmode(_fileno(stdin), _O_BINARY);
  while (fread(buf, 1, sizeof buf, stdin) > 0) {
  }
  return 0;
}
