# Compiler settings shared by the module and the C++ tests.

function(budgetsvm_set_warnings target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4 /bigobj /permissive-)
  else()
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  endif()
endfunction()

# Release builds use -O3. -march=native only on request (BUDGETSVM_NATIVE):
# wheels must run on any CPU of their architecture.
# -ffp-contract=off: a * b + c is fused into one FMA only where the code says
# so (the _fmadd_ intrinsics). GCC's default fuses wherever it inlines into an
# FMA target, so a build's results would move with unrelated code; Clang's
# fuses within expressions, so GCC and Clang builds would differ. MSVC does not
# contract unless asked (/fp:contract). See docs/numerics.md.
function(budgetsvm_set_optimization target)
  if(NOT MSVC)
    target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:-O3> -ffp-contract=off)
    if(BUDGETSVM_NATIVE)
      target_compile_options(${target} PRIVATE -march=native)
    endif()
  endif()
  # Sanitized builds at -Og -g1 whatever the build type's flags (these come
  # after them on the command line, so they win): with UBSan's checks GCC
  # spent about 6 minutes on one C++ test file at -O2 on a 2-core Zen 1
  # machine, 84 s at -Og; line tables are all the stack traces need.
  if(BUDGETSVM_SANITIZE AND NOT MSVC)
    target_compile_options(${target} PRIVATE -Og -g1 -fsanitize=address,undefined -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()
