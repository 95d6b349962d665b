// Known leaks for `devkit heap record --scan-at-exit` and `heapdiff --leaks`, checked against
// valgrind memcheck. `leaks`: every kind below; `none`: only reachable blocks.
//   leak_dropped    100 x 64 B, pointers dropped             leaked    (memcheck: definitely lost)
//   keep_global      50 x 96 B, kept in a global array        abandoned (memcheck: still reachable)
//   leak_list        20 x 32 B list, head dropped             leaked    (memcheck: 1 definitely + 19 indirectly)
//   keep_interior     1 x 200 B, only base+16 kept in a global abandoned (memcheck: possibly lost)
#include <stdlib.h>
#include <string.h>

struct node {
    struct node *next;
    char payload[24];
};

void *kept[50];
char *interior;
/// The list is published here and then dropped: the nodes' next pointers must really be
/// stored (a list the compiler can see is never read could lose them).
struct node *volatile list_head;

__attribute__((noinline)) static void leak_dropped(void) {
    for (int i = 0; i < 100; i++) {
        char *volatile p = malloc(64);
        p[0] = 1;
    }
}

__attribute__((noinline)) static void keep_global(void) {
    for (int i = 0; i < 50; i++) kept[i] = malloc(96);
}

__attribute__((noinline)) static void leak_list(void) {
    struct node *head = NULL;
    for (int i = 0; i < 20; i++) {
        struct node *n = malloc(sizeof *n);
        memset(n, 0, sizeof *n);
        n->next = head;
        head = n;
    }
    list_head = head;
    list_head = NULL;  // the head is dropped; node i still points to node i - 1
}

__attribute__((noinline)) static void keep_interior(void) {
    char *block = malloc(200);
    interior = block + 16;
}

__attribute__((noinline)) static void churn(void) {
    for (int i = 0; i < 100; i++) free(malloc(100));
}

/// Overwrites the stack the functions above used, so no stale copy of a dropped pointer
/// remains below main's frame for a conservative scan (ours or memcheck's) to find.
__attribute__((noinline)) static void scrub_stack(void) {
    volatile char area[16384];
    memset((char *)area, 0, sizeof area);
}

int main(int argc, char **argv) {
    int none = argc > 1 && strcmp(argv[1], "none") == 0;
    if (!none) leak_dropped();
    keep_global();
    if (!none) leak_list();
    keep_interior();
    churn();
    scrub_stack();
    return 0;
}
