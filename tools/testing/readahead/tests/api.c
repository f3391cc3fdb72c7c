#include "test.h"
void api_checks(void) { }
