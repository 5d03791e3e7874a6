// Includes downward only: the gui_rooms check lets it pass.
#pragma once
#include "kwb/results.h"
#include "model/results_model.h"
