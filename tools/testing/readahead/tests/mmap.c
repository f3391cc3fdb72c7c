#include "test.h"
void mmap_checks(void) { }
