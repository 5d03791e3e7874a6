# SPDX-License-Identifier: Apache-2.0
# Fails when a GUI source includes from a higher room than its own, or names a GUI header
# without its room. Run: cmake -DGUI_DIR=<dir holding the rooms> -P check_rooms.cmake
# The room order, lowest first, is the one in gui/CMakeLists.txt and docs/GUI.md.
set(rooms model engine plots panels pages report app)
if(NOT GUI_DIR)
  message(FATAL_ERROR "check_rooms: pass -DGUI_DIR=<directory holding the GUI rooms>")
endif()
if(NOT IS_DIRECTORY "${GUI_DIR}")
  message(FATAL_ERROR "check_rooms: GUI_DIR '${GUI_DIR}' is not a directory")
endif()

get_filename_component(GUI_DIR "${GUI_DIR}" ABSOLUTE)
set(problems "")
set(checked 0)
foreach(room IN LISTS rooms)
  list(FIND rooms ${room} rank)
  file(GLOB_RECURSE sources "${GUI_DIR}/${room}/*.cpp" "${GUI_DIR}/${room}/*.h")
  foreach(source IN LISTS sources)
    math(EXPR checked "${checked} + 1")
    file(RELATIVE_PATH name "${GUI_DIR}" "${source}")
    file(STRINGS "${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[^\"]*\"([^\"]*)\".*$" "\\1" header "${line}")
      if(header MATCHES "^kwb/")  # core
        continue()
      endif()
      string(REGEX MATCH "^[^/]+" target_room "${header}")
      list(FIND rooms "${target_room}" target_rank)
      if(NOT header MATCHES "/" OR target_rank LESS 0)
        string(APPEND problems "\n  ${name} includes \"${header}\", which names no room")
      elseif(target_rank GREATER rank)
        string(APPEND problems
               "\n  ${name} includes ${header}: ${room} may not include from ${target_room}")
      endif()
    endforeach()
  endforeach()
endforeach()

# Sources outside every room are misplaced.
file(GLOB loose "${GUI_DIR}/*.cpp" "${GUI_DIR}/*.h")
foreach(source IN LISTS loose)
  file(RELATIVE_PATH name "${GUI_DIR}" "${source}")
  string(APPEND problems "\n  ${name} is in no room")
endforeach()

if(problems)
  message(FATAL_ERROR "GUI includes run upward (order, lowest first: ${rooms}):${problems}")
endif()
if(checked EQUAL 0)
  message(FATAL_ERROR "check_rooms: no sources under the rooms of '${GUI_DIR}'")
endif()
message(STATUS "GUI rooms in order: ${checked} sources checked")
