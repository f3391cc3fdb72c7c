#include "test.h"
void shared_checks(void) { }
