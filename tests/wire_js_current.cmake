# The test wire_js_current: web/js/wire.js must be what tengen-wire-js writes from the protocol's
# descriptions now (protocol/tools/wire_js.cpp). Run with -DTOOL=, -DCOMMITTED=, -DFRESH=.
execute_process(COMMAND ${TOOL} ${FRESH} RESULT_VARIABLE written)
if(NOT written EQUAL 0)
  message(FATAL_ERROR "tengen-wire-js failed (${written})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${COMMITTED} ${FRESH} RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  message(FATAL_ERROR "web/js/wire.js is stale: the protocol changed. Write it again with "
                      "`cmake --build --preset dev --target wire_js` and commit it.")
endif()
