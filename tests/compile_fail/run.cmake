# Builds one compile-check target. EXPECT is "compile" (must build) or a regular expression the
# compiler's diagnostic must match after the build failed (so it fails for the right reason).
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY_DIR} --target ${TARGET}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(EXPECT STREQUAL "compile")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${TARGET} must compile but failed:\n${out}")
  endif()
  message(STATUS "${TARGET} compiled, as it must")
  return()
endif()
if(rc EQUAL 0)
  message(FATAL_ERROR "${TARGET} compiled but must not")
endif()
if(NOT out MATCHES "${EXPECT}")
  message(FATAL_ERROR "${TARGET} failed to compile, but without the expected diagnostic "
                      "'${EXPECT}':\n${out}")
endif()
message(STATUS "${TARGET} failed to compile with the expected diagnostic '${EXPECT}'")
