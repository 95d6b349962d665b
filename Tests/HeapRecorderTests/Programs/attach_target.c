// A process for `devkit heap record --pid` (HeapAttachTests): it allocates EARLY blocks, says
// "ready", then waits on stdin for commands. The test attaches while it waits.
//   alloc   attached_allocations(): 10 blocks of 100 bytes and 5 of 2000, then 4 of the
//           100-byte ones freed; the EARLY blocks freed (allocated before the attach)
//   plugin PATH   dlopen PATH (a module loaded after the attach) and call its plugin_leak
//   after   later allocations (after the detach) still work: 1000 malloc/free pairs
// End of input: exit status 0.
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EARLY 5
static void *early[EARLY];
static void *kept[15];

__attribute__((noinline)) static void attached_allocations(void) {
    for (int i = 0; i < 10; i++) kept[i] = malloc(100);
    for (int i = 10; i < 15; i++) kept[i] = malloc(2000);
    for (int i = 0; i < 4; i++) {
        free(kept[i]);
        kept[i] = NULL;
    }
}

int main(void) {
    for (int i = 0; i < EARLY; i++) early[i] = malloc(64);
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("ready\n");
    char line[4200];
    while (fgets(line, sizeof line, stdin)) {
        if (strcmp(line, "alloc\n") == 0) {
            attached_allocations();
            for (int i = 0; i < EARLY; i++) free(early[i]);
            printf("done\n");
        } else if (strncmp(line, "plugin ", 7) == 0) {
            line[strcspn(line, "\n")] = 0;
            void *library = dlopen(line + 7, RTLD_NOW);
            void (*leak)(void) = library ? (void (*)(void))dlsym(library, "plugin_leak") : NULL;
            if (!leak) return 4;
            leak();
            printf("plugin done\n");
        } else if (strcmp(line, "after\n") == 0) {
            for (int i = 0; i < 1000; i++) {
                char *p = malloc(32 + i);
                if (!p) return 3;
                memset(p, 1, 32 + i);
                free(p);
            }
            printf("after ok\n");
        }
    }
    return 0;
}
