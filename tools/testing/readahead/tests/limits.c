#include "test.h"
void limits_checks(void) { }
