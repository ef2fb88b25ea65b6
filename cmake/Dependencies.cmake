# Third-party libraries: the system's copy first, a pinned download as the fallback.
include(FetchContent)

find_package(CLI11 2.1 QUIET CONFIG)
if(NOT CLI11_FOUND)
  message(STATUS "CLI11 not found on this system: downloading v2.4.2 (needs network; or install "
                 "it: apt-get install libcli11-dev)")
  FetchContent_Declare(cli11
    URL https://github.com/CLIUtils/CLI11/archive/refs/tags/v2.4.2.tar.gz
    URL_HASH SHA256=f2d893a65c3b1324c50d4e682c0cdc021dd0477ae2c048544f39eed6654b699a
    TIMEOUT 10
    DOWNLOAD_EXTRACT_TIMESTAMP TRUE)
  FetchContent_MakeAvailable(cli11)
endif()

if(TP_TESTS)
  find_package(GTest 1.10 QUIET CONFIG)
  if(NOT GTest_FOUND)
    find_package(GTest 1.10 QUIET)
  endif()
  if(NOT GTest_FOUND)
    message(STATUS "GoogleTest not found on this system: downloading v1.14.0 (needs network; or "
                   "install it: apt-get install libgtest-dev)")
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    FetchContent_Declare(googletest
      URL https://github.com/google/googletest/archive/refs/tags/v1.14.0.tar.gz
      URL_HASH SHA256=8ad598c73ad796e0d8280b082cebd82a630d73e73cd3c70057938a6501bba5d7
      TIMEOUT 10
      DOWNLOAD_EXTRACT_TIMESTAMP TRUE)
    FetchContent_MakeAvailable(googletest)
    add_library(GTest::gtest ALIAS gtest)
    add_library(GTest::gtest_main ALIAS gtest_main)
  endif()
  include(GoogleTest)
endif()
