// devkit heapshots example: a "document" is opened and closed three times; closing it frees
// the document but forgets its thumbnail cache, so every open/close cycle leaves memory
// behind that is still reachable (abandoned, not leaked). Each cycle is a generation.
//
//   cc -g -O0 -I Sources/HeapRecorder/include Samples/heapshots.c -o /tmp/heapshots
//   devkit heap record -o /tmp/heapshots.dkheap -- /tmp/heapshots
//   devkit heapdiff /tmp/heapshots.dkheap --group-by function
//
// devkit_heap_mark_generation() does nothing when the program runs without the recorder.
#include <stdlib.h>
#include <string.h>

#include "devkit_heap.h"

struct document {
    char *text;
    size_t length;
};

// The cache the program forgets to empty: it grows by one thumbnail per open.
void *thumbnails[64];
int thumbnail_count;

__attribute__((noinline)) static struct document *open_document(size_t length) {
    struct document *document = malloc(sizeof *document);
    document->text = calloc(1, length);
    document->length = length;
    thumbnails[thumbnail_count++] = malloc(16 * 1024);  // never freed: abandoned
    return document;
}

__attribute__((noinline)) static void close_document(struct document *document) {
    free(document->text);
    free(document);
}

int main(void) {
    for (int cycle = 0; cycle < 3; cycle++) {
        devkit_heap_mark_generation(cycle == 0 ? "open/close 1" : cycle == 1 ? "open/close 2" : "open/close 3");
        struct document *document = open_document(100 * 1000);
        memset(document->text, 'x', document->length - 1);
        close_document(document);
    }
    devkit_heap_mark_generation("idle");
    return 0;
}
