// Planted fault for the gui_rooms check: the model room reaches up into the app room.
#pragma once
#include "app/main_window.h"
#include "model/results_model.h"
