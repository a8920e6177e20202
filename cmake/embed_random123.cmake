# Writes OUT (a .cpp) defining `const char* const clarray::detail::kernel_source_random123`: the
# Random123 headers the random kernels use (philox.h, threefry.h, u01fixedpt.h and what they
# include when compiled as OpenCL C), flattened into one text from DIR (the Random123/ folder).
# The library carries the text, so device compilers need no include path at run time (drivers
# differ in how they resolve -I and relative includes) and an installed clarray does not need
# Random123 on the machine that runs it. The headers' copyright notices travel with their text.
#
# Only the includes of the OpenCL path are resolved: compilerfeatures.h selects openclfeatures.h
# under __OPENCL_VERSION__; its other compilers' #include lines stay, in branches OpenCL C never
# takes. Each header keeps its include guard, so emitting them in dependency order and dropping
# the resolved #include lines gives the text the preprocessor would.
set(order features/compilerfeatures.h features/sse.h array.h u01fixedpt.h philox.h threefry.h)
set(resolved "features/compilerfeatures.h" "features/sse.h" "array.h" "openclfeatures.h")
file(READ "${DIR}/features/openclfeatures.h" opencl)
set(body "")
foreach(h IN LISTS order)
  if(NOT EXISTS "${DIR}/${h}")
    message(FATAL_ERROR "embed_random123: ${DIR}/${h} not found")
  endif()
  file(READ "${DIR}/${h}" text)
  string(REPLACE "#include \"openclfeatures.h\"" "${opencl}" text "${text}")
  foreach(r IN LISTS resolved)
    string(REPLACE "#include \"${r}\"" "/* ${r}: embedded above */" text "${text}")
  endforeach()
  string(APPEND body "\n/* ---- Random123/${h} ---- */\n${text}")
endforeach()
set(out "// Generated from the Random123 headers by cmake/embed_random123.cmake. Do not edit.\n")
string(APPEND out "namespace clarray::detail {\nextern const char* const kernel_source_random123;\n")
string(APPEND out "const char* const kernel_source_random123 = R\"clarray_r123(${body})clarray_r123\";\n")
string(APPEND out "} // namespace clarray::detail\n")
file(WRITE "${OUT}.tmp" "${out}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
