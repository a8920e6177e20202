# Checks that every Catch2 test case is one ctest entry and that no entry runs nothing.
#
# catch_discover_tests turns each name from `clarray_tests --list-test-names-only` into a ctest
# entry, but CMake splits list items at ';': a test named "a; b" became two entries ("a" and
# " b") whose test specs match no test case, so they ran nothing and passed. This script fails
#  * when a Catch2 test name contains ';',
#  * when a Catch2 test name has no ctest entry of that exact name,
#  * when a ctest entry that runs the test binary selects no Catch2 test case.
# For names holding characters of Catch2's spec syntax beyond the escaped ',', '[' and ']', the
# last check asks the binary itself (`<spec> --list-test-names-only`, which only lists; in
# Catch2 3 `--list-tests --verbosity quiet`), so the spec is matched exactly as the entry's run
# would match it.
#
# cmake -DCTEST_COMMAND=... -DBUILD_DIR=... -DTEST_EXE=... [-DCATCH2_MAJOR=3]
#       -P check_test_names.cmake
foreach(var CTEST_COMMAND BUILD_DIR TEST_EXE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_test_names: -D${var}=... is required")
  endif()
endforeach()
# The names alone, one per line: Catch2 3 dropped --list-test-names-only.
if(CATCH2_MAJOR EQUAL 3)
  set(list_names --list-tests --verbosity quiet)
else()
  set(list_names --list-test-names-only)
endif()

execute_process(COMMAND "${TEST_EXE}" ${list_names}
                OUTPUT_VARIABLE listed RESULT_VARIABLE rc)
if(rc LESS 0 OR rc MATCHES "[^0-9-]")
  message(FATAL_ERROR "check_test_names: '${TEST_EXE} ${list_names}' failed: ${rc}")
endif()
# One name per line. Names are kept out of CMake lists (';' is the very character to catch):
# the loop walks the text line by line.
set(errors "")
set(catch_names_count 0)
string(REPLACE "\r" "" listed "${listed}")
set(rest "${listed}")
set(names_text "\n")
while(NOT rest STREQUAL "")
  string(FIND "${rest}" "\n" nl)
  if(nl EQUAL -1)
    set(line "${rest}")
    set(rest "")
  else()
    string(SUBSTRING "${rest}" 0 ${nl} line)
    math(EXPR next "${nl} + 1")
    string(SUBSTRING "${rest}" ${next} -1 rest)
  endif()
  if(line STREQUAL "")
    continue()
  endif()
  math(EXPR catch_names_count "${catch_names_count} + 1")
  string(FIND "${line}" ";" semicolon)
  if(NOT semicolon EQUAL -1)
    string(APPEND errors "  test name contains ';' (ctest splits it into entries that run nothing): ${line}\n")
  endif()
  string(APPEND names_text "${line}\n")
endwhile()

include(${CMAKE_CURRENT_LIST_DIR}/ctest_json.cmake)
ctest_entries(check_test_names "${CTEST_COMMAND}" "${BUILD_DIR}" tests_json ntests)
set(entry_names_text "\n")
set(entries_checked 0)
if(ntests GREATER 0)
  math(EXPR last "${ntests} - 1")
  foreach(i RANGE ${last})
    string(JSON entry GET "${tests_json}" ${i})
    string(JSON name GET "${entry}" name)
    string(JSON ncmd ERROR_VARIABLE no_command LENGTH "${entry}" command)
    if(no_command OR ncmd LESS 2)
      continue()
    endif()
    string(JSON exe GET "${entry}" command 0)
    get_filename_component(exe_name "${exe}" NAME)
    get_filename_component(test_exe_name "${TEST_EXE}" NAME)
    if(NOT exe_name STREQUAL test_exe_name)
      continue()
    endif()
    string(APPEND entry_names_text "${name}\n")
    ctest_entry_arguments("${entry}" args)
    # Only entries made by catch_discover_tests (their spec is their escaped name); entries such
    # as gpu_plans_on_this_device select tests by tag and may select none in a partial build.
    set(escaped "${name}")
    foreach(char , [ ])
      string(REPLACE "${char}" "\\${char}" escaped "${escaped}")
    endforeach()
    list(LENGTH args nargs)
    if(nargs EQUAL 0)
      continue()
    endif()
    list(GET args 0 spec)
    if(NOT spec STREQUAL escaped)
      continue()
    endif()
    # A spec that is the name with ',', '[' and ']' escaped matches that name exactly unless the
    # name holds another character of Catch2's spec syntax (a wildcard, negation, quote or
    # escape), starts with "exclude:" or has spaces at an end: only those ask the binary (one
    # process per entry took some 40 s of the suite).
    string(REGEX MATCH "[*~\"\\]|^exclude:|^ | $" special "${name}")
    if(special STREQUAL "")
      continue()
    endif()
    execute_process(COMMAND "${exe}" ${args} ${list_names}
                    OUTPUT_VARIABLE selected RESULT_VARIABLE sel_rc)
    string(STRIP "${selected}" selected)
    math(EXPR entries_checked "${entries_checked} + 1")
    if(selected STREQUAL "")
      string(APPEND errors "  ctest entry '${name}' selects no Catch2 test case (it would run nothing and pass)\n")
    endif()
  endforeach()
endif()

# Every Catch2 name (without ';') must be an entry's exact name.
set(rest "${names_text}")
string(SUBSTRING "${rest}" 1 -1 rest)
while(NOT rest STREQUAL "")
  string(FIND "${rest}" "\n" nl)
  string(SUBSTRING "${rest}" 0 ${nl} line)
  math(EXPR next "${nl} + 1")
  string(SUBSTRING "${rest}" ${next} -1 rest)
  string(FIND "${line}" ";" semicolon)
  if(semicolon EQUAL -1)
    string(FIND "${entry_names_text}" "\n${line}\n" found)
    if(found EQUAL -1)
      string(APPEND errors "  Catch2 test case has no ctest entry of its name: ${line}\n")
    endif()
  endif()
endwhile()

if(NOT errors STREQUAL "")
  message(FATAL_ERROR "check_test_names: ${catch_names_count} Catch2 test cases, "
                      "${entries_checked} ctest entries checked:\n${errors}")
endif()
message(STATUS "check_test_names: ${catch_names_count} Catch2 test cases, ${entries_checked} "
               "ctest entries, each selecting at least one")
