// The floor under a freshness check: stat(2) of a list of paths and nothing else, on one thread and on two
// (halves, and chunks of 256 taken by whichever thread is free, as the host's StatBatch does), median and p95.
// Compare it with the host's own check of the same files: what the check costs above this is SharpClaw's.
// The optional GAP_MS idles between runs as an agent's queries do: on a VM the second core may then be
// asleep when a run starts, which is where the host's p95 comes from.
//
//   gcc -O2 -pthread bench/stat-floor.c -o /tmp/stat-floor
//   S=/tmp/sharpclaw-synth-50; { find $S -name '*.cs' -not -path '*/obj/*'; find $S -type d -not -path '*/obj*' -not -path '*/bin*';
//     find $S \( -name '*.csproj' -o -name '*.props' -o -name '*.targets' -o -name '*.slnx' -o -path '*/obj/*.json' \); } > /tmp/paths.txt
//   /tmp/stat-floor /tmp/paths.txt [RUNS=21] [GAP_MS=0] [samples]
// With "samples" only the chunked runs are made, after one that is not counted (a new process's first run is
// slow), and each one's time is printed: bench/store-search.mjs interleaves them with its queries, so the floor
// is sampled at the same moments as the searches.
// The store's check of the 10,001-file synthetic (bench/store-search.mjs) stats each folder, its .gitignore and each file:
//   S=/tmp/sharpclaw-synth-files-10000; { find $S -type d | sed 'p;s|$|/.gitignore|'; find $S -name '*.cs'; } > /tmp/paths.txt
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_RUNS 1001
#define MAX_PATHS 200000
#define CHUNK 256

static char *paths[MAX_PATHS];
static int count;
static int next_chunk;

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

static void *stat_chunks(void *arg) {
  (void)arg;
  struct stat st;
  for (int chunk; (chunk = __atomic_fetch_add(&next_chunk, 1, __ATOMIC_RELAXED)) * CHUNK < count;)
    for (int i = chunk * CHUNK; i < count && i < (chunk + 1) * CHUNK; i++) stat(paths[i], &st);
  return NULL;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void report(const char *name, double *times, int runs) {
  qsort(times, runs, sizeof times[0], by_value);
  printf("%s p50 %.2f ms p95 %.2f ms; ", name, times[runs / 2], times[(runs * 95 + 99) / 100 - 1]);
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 5 || (argc == 5 && strcmp(argv[4], "samples") != 0)) {
    fprintf(stderr, "usage: %s PATHS.txt [RUNS] [GAP_MS] [samples]\n", argv[0]);
    return 2;
  }
  int runs = argc > 2 ? atoi(argv[2]) : 21;
  int gap_ms = argc > 3 ? atoi(argv[3]) : 0;
  int samples_only = argc == 5;
  if (runs < 1 || runs > MAX_RUNS || gap_ms < 0) { fprintf(stderr, "RUNS must be 1-%d and GAP_MS 0 or more\n", MAX_RUNS); return 2; }
  FILE *file = fopen(argv[1], "r");
  if (!file) { perror(argv[1]); return 2; }
  char line[4096];
  while (count < MAX_PATHS && fgets(line, sizeof line, file)) {
    line[strcspn(line, "\n")] = 0;
    if (line[0]) paths[count++] = strdup(line);
  }
  fclose(file);

  static double one[MAX_RUNS], halves[MAX_RUNS], chunks[MAX_RUNS];
  for (int r = 0; r < runs && !samples_only; r++) {
    if (gap_ms) usleep(gap_ms * 1000);
    double started = now_ms();
    Range all = { 0, count };
    stat_range(&all);
    one[r] = now_ms() - started;
  }
  for (int r = 0; r < runs && !samples_only; r++) {
    if (gap_ms) usleep(gap_ms * 1000);
    double started = now_ms();
    pthread_t other;
    Range first = { 0, count / 2 }, second = { count / 2, count };
    pthread_create(&other, NULL, stat_range, &first);
    stat_range(&second);
    pthread_join(other, NULL);
    halves[r] = now_ms() - started;
  }
  for (int r = samples_only ? -1 : 0; r < runs; r++) {
    if (gap_ms) usleep(gap_ms * 1000);
    double started = now_ms();
    pthread_t other;
    next_chunk = 0;
    pthread_create(&other, NULL, stat_chunks, NULL);
    stat_chunks(NULL);
    pthread_join(other, NULL);
    if (r >= 0) chunks[r] = now_ms() - started;
  }
  if (samples_only) {
    for (int r = 0; r < runs; r++) printf("%.3f%c", chunks[r], r + 1 < runs ? ' ' : '\n');
    return 0;
  }
  printf("%d paths, %d runs, %d ms apart: ", count, runs, gap_ms);
  report("one thread", one, runs);
  report("two threads (halves)", halves, runs);
  report("two threads (chunks)", chunks, runs);
  printf("\n");
  return 0;
}
