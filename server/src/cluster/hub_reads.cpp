#include "cluster/hub_reads.h"

#include "lobby/hub.h"
#include "protocol/bus.h"

namespace tengen::cluster {

namespace bus = protocol::bus;

HubReads hub_reads_of(Hub& hub) {
  return HubReads{
      .live_sgf = [&hub](std::int64_t game) { return hub.sgf(game); },
      .tournaments = [&hub](const store::Page& page) { return hub.tournaments_json(page); },
      .tournament = [&hub](std::int64_t id) { return hub.tournament_json(id); }};
}

std::unique_ptr<Bus::Subscription> answer_hub_reads(Bus& bus, HubReads local) {
  return bus.answer(bus::hub_reads_subject(), [local = std::move(local)](std::string_view text) {
    const auto question = bus::decode_hub_read(text);
    if (!question) throw std::runtime_error("unreadable, not answered");  // the bus logs it
    bus::HubReadAnswer answer;
    switch (question->what) {
      case bus::HubRead::What::LiveSgf:
        answer.body = local.live_sgf(question->id);
        break;
      case bus::HubRead::What::Tournaments:
        answer.body = local.tournaments(store::Page{question->before, question->limit});
        break;
      case bus::HubRead::What::Tournament:
        answer.body = local.tournament(question->id);
        break;
    }
    return bus::encode(answer);
  });
}

namespace {

std::optional<std::string> ask(Bus& bus, std::chrono::milliseconds patience,
                               const bus::HubRead& question) {
  const auto reply = bus.request(bus::hub_reads_subject(), bus::encode(question), patience);
  if (!reply) {
    throw Unavailable(
        "the cluster's hub did not answer (it may be changing over to another node): try again "
        "in a moment");
  }
  auto answer = bus::decode_hub_read_answer(*reply);
  if (!answer) throw Unavailable("the cluster's hub answered something unreadable");
  return std::move(answer->body);
}

}  // namespace

HubReads ask_hub(Bus& bus, std::chrono::milliseconds patience) {
  using What = bus::HubRead::What;
  return HubReads{
      .live_sgf =
          [&bus, patience](std::int64_t game) {
            return ask(bus, patience, {What::LiveSgf, game, std::nullopt, 0});
          },
      .tournaments =
          [&bus, patience](const store::Page& page) {
            auto body = ask(bus, patience, {What::Tournaments, 0, page.before, page.limit});
            if (!body) throw Unavailable("the cluster's hub answered no tournament list");
            return std::move(*body);
          },
      .tournament =
          [&bus, patience](std::int64_t id) {
            return ask(bus, patience, {What::Tournament, id, std::nullopt, 0});
          }};
}

}  // namespace tengen::cluster
