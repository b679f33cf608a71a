#!/usr/bin/perl
# Replays a recorded session into its PTY with the original timing: each line of the recording
# is "<ms into the cycle> <hex bytes>"; cycle k of step s is written at T0 + offset + k*period + at.
# T0 (ms since the epoch) is read from the start file once it exists: the bench writes it when every
# pane of the fleet runs, so the replay never starts while panes are still being created.
# period 0: played once, then the agent sits at its prompt (reads stdin, writes nothing).
# The fifth argument is the command line the process shows (the agent it stands for).
use strict;
use warnings;
use Time::HiRes qw(time sleep);
my ($file, $start, $offset, $period, $name) = @ARGV;
# The foreground probe reads /proc/<pid>/cmdline: show the agent's command, as the real one would.
$0 = $name if defined $name && $name ne '';
open(my $fh, '<', $file) or die "cannot read $file: $!";
my @steps;
while (my $line = <$fh>) {
  chomp $line;
  my ($at, $hex) = split / /, $line, 2;
  push @steps, [$at, pack('H*', $hex // '')];
}
close $fh;
my $t0;
until (defined $t0) {
  if (open(my $sf, '<', $start)) {
    my $line = <$sf>;
    close $sf;
    $t0 = $1 if defined $line && $line =~ /^(\d+)/;
  }
  sleep(0.1) unless defined $t0;
}
binmode STDOUT;
$| = 1;
for (my $k = 0; ; $k++) {
  for my $s (@steps) {
    my $due = $t0 / 1000 + ($offset + $k * $period + $s->[0]) / 1000;
    my $wait = $due - time;
    sleep($wait) if $wait > 0;
    print $s->[1];
  }
  last if $period == 0;
}
sleep(3600) while 1;
