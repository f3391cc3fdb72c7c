#include "test.h"
void fadvise_checks(void) { }
