// Test program for the HTML report (HeapHTMLReportTests): known survivors per generation at
// known functions, and a hostile generation label that must come out escaped.
// Built by the tests with: cc -g -O0 generations.c -o generations
#include <stdlib.h>

#include "../../../Sources/HeapRecorder/include/devkit_heap.h"

static void *kept[64];
static int kept_count;

__attribute__((noinline)) void make_config(void) { for (int i = 0; i < 2; i++) kept[kept_count++] = malloc(200); }
__attribute__((noinline)) void decode_image(void) { kept[kept_count++] = malloc(1000); }
__attribute__((noinline)) void load_images(void) { for (int i = 0; i < 5; i++) decode_image(); }
__attribute__((noinline)) void load_fonts(void) { for (int i = 0; i < 3; i++) kept[kept_count++] = malloc(777); }
__attribute__((noinline)) void churn(void) {
    for (int i = 0; i < 50; i++) {
        void *volatile p = malloc(333);
        free(p);
    }
}

int main(void) {
    make_config();
    devkit_heap_mark_generation("load <script>alert(\"x\")</script> & 'more'");
    load_images();
    load_fonts();
    devkit_heap_mark_generation("idle");
    churn();
    return 0;
}
