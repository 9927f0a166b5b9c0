#pragma once

#include "action_refusal.h"
#include "http/api_util.h"

// How a service's refusal goes back over HTTP (group_api.cpp, ladder_api.cpp, class_api.cpp,
// simul_api.cpp, pair_api.cpp): its status, code and words; `retry_after_s` with a 429.
namespace tengen::api {

inline ApiResponse refused(const ActionRefusal& no, int retry_after_s = 0) {
  auto response = error(no.status, no.code, no.message);
  if (no.status == 429 && retry_after_s > 0) response.retry_after_s = retry_after_s;
  return response;
}
inline ApiResponse done(const ActionMaybe& no, int retry_after_s = 0) {
  return no ? refused(*no, retry_after_s) : ApiResponse{204, "", {}};
}

}  // namespace tengen::api
