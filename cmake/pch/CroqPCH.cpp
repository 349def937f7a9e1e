//===- CroqPCH.cpp - the target that builds CroqPCH.h's PCH ---------------===//
//
// Empty: CMake needs a source to attach the precompiled header to; croq's
// libraries reuse the result (target_precompile_headers REUSE_FROM).
//
//===----------------------------------------------------------------------===//
