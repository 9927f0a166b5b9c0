// What travels between nodes (protocol/bus.h): each message read back as written, and what is
// not such a message refused rather than half-read.
#include "protocol/bus.h"

#include <gtest/gtest.h>

namespace tengen::protocol::bus {
namespace {

TEST(Bus, AConnectionsCommandToTheHubReadsBackAsWritten) {
  ToHub m{ToHub::Op::Received,
          7,
          42,
          User{3, "shusaku", false, 1700000000000},
          35,
          R"({"type":"play","game":1,"vertex":"D4"})"};
  const auto back = decode_to_hub(encode(m));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->op, ToHub::Op::Received);
  EXPECT_EQ(back->node, 7);
  EXPECT_EQ(back->connection, 42u);
  ASSERT_TRUE(back->user);
  EXPECT_EQ(back->user->name, "shusaku");
  EXPECT_EQ(back->user->created_at_ms, 1700000000000);
  EXPECT_EQ(back->rtt_ms, 35);
  EXPECT_EQ(back->text, m.text);
  EXPECT_FALSE(back->user->admin);
  m.user->admin = true;  // an administrator sees a private game's review through any node
  EXPECT_TRUE(decode_to_hub(encode(m))->user->admin);

  const auto guest = decode_to_hub(encode(ToHub{ToHub::Op::Connected, 2, 1, {}, {}, ""}));
  ASSERT_TRUE(guest);
  EXPECT_FALSE(guest->user);
  EXPECT_FALSE(guest->rtt_ms);
  for (const auto op : {ToHub::Op::RollCall, ToHub::Op::RollEnd})
    EXPECT_EQ(decode_to_hub(encode(ToHub{op, 2, 0, {}, {}, ""}))->op, op);
}

TEST(Bus, TheHubsMessagesToANodeReadBackAsWritten) {
  const auto back = decode_to_node(encode(ToNode{9, {"a", "b\"c"}, std::nullopt}));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->connection, 9u);
  EXPECT_EQ(back->texts, (std::vector<std::string>{"a", "b\"c"}));
  EXPECT_FALSE(back->barrier);
  EXPECT_EQ(decode_to_node(encode(ToNode{0, {}, 12}))->barrier, 12u);
  EXPECT_TRUE(decode_to_node(encode(ToNode{4, {}, std::nullopt, true}))->unknown);
  // Games on every node: a command sent back, with the node that plays its game.
  const auto moved =
      decode_to_node(encode(ToNode{4, {"{\"type\":\"join\"}"}, std::nullopt, false, 3}));
  ASSERT_TRUE(moved);
  EXPECT_EQ(moved->moved, 3);
  EXPECT_EQ(moved->texts, std::vector<std::string>{"{\"type\":\"join\"}"});
  EXPECT_FALSE(decode_to_node(encode(ToNode{4, {}, std::nullopt}))->moved);
  const auto owner = decode_game_owner(encode(GameOwner{12, 2}));
  ASSERT_TRUE(owner);
  EXPECT_EQ(owner->game, 12);
  EXPECT_EQ(owner->node, 2);
  EXPECT_EQ(decode_game_owner(encode(GameOwner{12, 0}))->node, 0) << "the hub's again";
  EXPECT_EQ(decode_node_left(encode_node_left(5)), 5);
  EXPECT_FALSE(decode_hub(encode(GameOwner{12, 2}))) << "not a hub's announcement";
  EXPECT_FALSE(decode_game_owner(encode_hub(2)));
  EXPECT_FALSE(decode_node_left(encode_hub_leaving(2)));
  EXPECT_FALSE(decode_to_node(encode(ToNode{4, {}, std::nullopt}))->unknown);
  EXPECT_EQ(decode_hub(encode_hub(5)), 5);
  EXPECT_EQ(decode_hub_leaving(encode_hub_leaving(5)), 5);
  EXPECT_FALSE(decode_hub_leaving(encode_hub(5))) << "an announcement is not a leaving";
  EXPECT_FALSE(decode_hub(encode_hub_leaving(5))) << "nor the other way round";
  const auto ended = decode_session_ended(encode(SessionEnded{3, 77}));
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->node, 3);
  EXPECT_EQ(ended->session, 77);
  EXPECT_EQ(ended->why, "");
  EXPECT_EQ(decode_session_ended(encode(SessionEnded{3, 77, "banned"}))->why, "banned");
  const auto chat = decode_chat_posted(encode(ChatPosted{41, 7}));
  ASSERT_TRUE(chat);
  EXPECT_EQ(chat->user, 41);
  EXPECT_EQ(chat->counter, 7);
}

TEST(Bus, AFrontNodesQuestionsToTheHubAndTheAnswersReadBackAsWritten) {
  using What = HubRead::What;
  for (const HubRead& q :
       {HubRead{What::LiveSgf, 42, std::nullopt, 0}, HubRead{What::Tournaments, 0, 17, 50},
        HubRead{What::Tournaments, 0, std::nullopt, 20},
        HubRead{What::Tournament, 3, std::nullopt, 0},
        HubRead{What::ReviewSgf, 3, std::nullopt, 0, {}, 12, true},
        HubRead{What::Reviews, 0, std::nullopt, 0, {}, std::nullopt, false}}) {
    const auto back = decode_hub_read(encode(q));
    ASSERT_TRUE(back) << encode(q);
    EXPECT_EQ(back->what, q.what);
    EXPECT_EQ(back->id, q.id);
    EXPECT_EQ(back->before, q.before);
    EXPECT_EQ(back->limit, q.limit);
    EXPECT_EQ(back->viewer, q.viewer);
    EXPECT_EQ(back->admin, q.admin);
  }
  EXPECT_EQ(decode_hub_read_answer(encode(HubReadAnswer{"(;GM[1])"}))->body, "(;GM[1])");
  EXPECT_FALSE(decode_hub_read_answer(encode(HubReadAnswer{}))->body) << "none: not found";
}

TEST(Bus, WhatIsNotSuchAMessageIsRefused) {
  for (const char* text : {"", "[]", "{}", "not json", R"({"op":"shout","node":1,"connection":1})",
                           R"({"op":"received","node":"1","connection":1})",
                           R"({"op":"received","node":1,"connection":-1})",
                           R"({"op":"received","node":1,"connection":1,"user":{"id":1}})"}) {
    EXPECT_FALSE(decode_to_hub(text)) << text;
  }
  EXPECT_FALSE(decode_to_node(R"({"connection":1,"texts":[1]})"));
  EXPECT_FALSE(decode_hub(R"({"hub":"a"})"));
  EXPECT_FALSE(decode_game_owner(R"({"game":1})"));
  EXPECT_FALSE(decode_game_owner(R"({"game":1,"owner":"b"})"));
  EXPECT_FALSE(decode_to_node(R"({"connection":1,"texts":[],"moved":"b"})"));
  EXPECT_FALSE(decode_session_ended(R"({"node":1})"));
  EXPECT_FALSE(decode_session_ended(R"({"node":1,"session_ended":"7"})"));
  EXPECT_FALSE(decode_chat_posted(R"({"chat_by":1})"));
  EXPECT_FALSE(decode_chat_posted(R"({"chat_by":"ann","counter":2})"));
  EXPECT_FALSE(decode_chat_posted(encode(SessionEnded{3, 77})));
  for (const char* text : {"{}", R"({"read":"everything","id":1,"limit":0})",
                           R"({"read":"live_sgf","id":"1","limit":0})",
                           R"({"read":"tournaments","id":0,"limit":20,"before":"x"})"}) {
    EXPECT_FALSE(decode_hub_read(text)) << text;
  }
  EXPECT_FALSE(decode_hub_read_answer(R"({"body":3})"));
  EXPECT_FALSE(decode_hub_read_answer("[]"));
}

}  // namespace
}  // namespace tengen::protocol::bus
