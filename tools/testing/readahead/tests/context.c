#include "test.h"
void context_checks(void) { }
