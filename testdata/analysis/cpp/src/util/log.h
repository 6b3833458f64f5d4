#pragma once
namespace util { void log(const char* msg); }
