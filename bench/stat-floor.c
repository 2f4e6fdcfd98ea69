// The floor under a freshness check: stat(2) of a list of paths and nothing else, on one thread and split over
// two, median and p95 of 21 runs each. Compare it with the host's own check of the same solution
// (`SharpClaw.Bench fingerprint` / `probe --name breakdown`): what the check costs above this is SharpClaw's.
//
//   gcc -O2 -pthread bench/stat-floor.c -o /tmp/stat-floor
//   S=/tmp/sharpclaw-synth-50; { find $S -name '*.cs' -not -path '*/obj/*'; find $S -type d -not -path '*/obj*' -not -path '*/bin*';
//     find $S \( -name '*.csproj' -o -name '*.props' -o -name '*.targets' -o -name '*.slnx' -o -path '*/obj/*.json' \); } > /tmp/paths.txt
//   /tmp/stat-floor /tmp/paths.txt
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define RUNS 21
#define MAX_PATHS 200000

static char *paths[MAX_PATHS];
static int count;

typedef struct { int from, to; } Range;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void *stat_range(void *arg) {
  Range *range = arg;
  struct stat st;
  for (int i = range->from; i < range->to; i++) stat(paths[i], &st);
  return NULL;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: %s PATHS.txt (one path a line)\n", argv[0]); return 2; }
  FILE *file = fopen(argv[1], "r");
  if (!file) { perror(argv[1]); return 2; }
  char line[4096];
  while (count < MAX_PATHS && fgets(line, sizeof line, file)) {
    line[strcspn(line, "\n")] = 0;
    if (line[0]) paths[count++] = strdup(line);
  }
  fclose(file);

  double one[RUNS], two[RUNS];
  for (int r = 0; r < RUNS; r++) {
    double started = now_ms();
    Range all = { 0, count };
    stat_range(&all);
    one[r] = now_ms() - started;
  }
  for (int r = 0; r < RUNS; r++) {
    double started = now_ms();
    pthread_t other;
    Range first = { 0, count / 2 }, second = { count / 2, count };
    pthread_create(&other, NULL, stat_range, &first);
    stat_range(&second);
    pthread_join(other, NULL);
    two[r] = now_ms() - started;
  }
  qsort(one, RUNS, sizeof one[0], by_value);
  qsort(two, RUNS, sizeof two[0], by_value);
  printf("%d paths: one thread p50 %.2f ms p95 %.2f ms; two threads p50 %.2f ms p95 %.2f ms\n", count, one[RUNS / 2], one[RUNS - 2], two[RUNS / 2], two[RUNS - 2]);
  return 0;
}
