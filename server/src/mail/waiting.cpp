#include "mail/waiting.h"

#include "protocol/messages.h"

namespace tengen {

std::vector<WaitingGame> waiting_games(const protocol::MyGames& games, std::int64_t user) {
  std::vector<WaitingGame> out;
  for (const auto& g : games.games) {
    if (!g.your_move || !g.to_move ||
        g.settings.time.system != protocol::TimeControl::System::Correspondence)
      continue;
    WaitingGame w{g.game, (g.black.id == user ? g.white : g.black).name, g.moves};
    if (g.clock) w.left_ms = (*g.to_move == Color::Black ? g.clock->black : g.clock->white).main_ms;
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace tengen
