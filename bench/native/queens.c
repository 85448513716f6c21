// Plain recursive bitmask N-Queens counter with only the half-first-row mirror: the C yardstick
// for bench/run.js. Usage: queens N. Prints "total=<count> ms=<milliseconds of counting>".
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static unsigned full;

static unsigned long long solve(unsigned ld, unsigned cols, unsigned rd) {
  if (cols == full) return 1;
  unsigned long long count = 0;
  unsigned poss = full & ~(ld | cols | rd);
  while (poss) {
    unsigned bit = poss & -poss;
    poss ^= bit;
    count += solve((ld | bit) << 1, cols | bit, (rd | bit) >> 1);
  }
  return count;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 0;
  if (n < 1 || n > 31) {
    fprintf(stderr, "usage: queens N (1..31)\n");
    return 2;
  }
  full = (1u << n) - 1;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  // First-row columns left of the middle, doubled by the mirror; the middle one (odd n) once.
  unsigned long long total = 0;
  for (int c = 0; c < n / 2; c++) {
    unsigned bit = 1u << c;
    total += solve(bit << 1, bit, bit >> 1);
  }
  total *= 2;
  if (n & 1) {
    unsigned bit = 1u << (n / 2);
    total += solve(bit << 1, bit, bit >> 1);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
  printf("total=%llu ms=%.3f\n", total, ms);
  return 0;
}
