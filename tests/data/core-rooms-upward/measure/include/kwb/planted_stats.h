#pragma once
// A planted offender for core/check_rooms.cmake: a statistic that reads documents.
#include "kwb/results.h"
