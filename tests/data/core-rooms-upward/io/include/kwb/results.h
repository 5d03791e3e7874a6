#pragma once
// Stands for the io room's header in the planted tree.
