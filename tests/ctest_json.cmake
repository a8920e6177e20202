# The ctest entries of a build tree as ctest's JSON (--show-only=json-v1), for the scripts that
# check the test binary's entries (check_test_names.cmake, file_entries.cmake).

# The entries' JSON array and its length. Each string(JSON) call parses its whole input: take
# the array once, then one entry at a time.
function(ctest_entries who ctest build_dir out_tests out_count)
  execute_process(COMMAND "${ctest}" --test-dir "${build_dir}" --show-only=json-v1
                  OUTPUT_VARIABLE json RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${who}: ctest --show-only=json-v1 failed (${rc})")
  endif()
  string(JSON tests GET "${json}" tests)
  string(JSON count LENGTH "${tests}")
  set(${out_tests} "${tests}" PARENT_SCOPE)
  set(${out_count} ${count} PARENT_SCOPE)
endfunction()

# The arguments of an entry's command after the executable, empty ones left out
# (catch_discover_tests passes "" for unset options).
function(ctest_entry_arguments entry out)
  set(args "")
  string(JSON ncmd ERROR_VARIABLE no_command LENGTH "${entry}" command)
  if(NOT no_command AND ncmd GREATER 1)
    math(EXPR last "${ncmd} - 1")
    foreach(k RANGE 1 ${last})
      string(JSON arg GET "${entry}" command ${k})
      if(NOT arg STREQUAL "")
        list(APPEND args "${arg}")
      endif()
    endforeach()
  endif()
  set(${out} "${args}" PARENT_SCOPE)
endfunction()
