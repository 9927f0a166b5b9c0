// Every refusal of a room (rooms/refusals.h): its code and words come from the one table, the
// particulars fill its places in order, and a refusal given more particulars than places is a
// fault that throws rather than words that lie.
#include "rooms/refusals.h"

#include <gtest/gtest.h>

namespace tengen {
namespace {

using protocol::ErrorCode;

TEST(Refusals, EachComesWithItsCodeAndItsWordsFilledInOrder) {
  const auto e = refusal(Refused::NotAPoint, "c-1", 42, {"Z9", "9", "9"});
  EXPECT_EQ(e.cid, "c-1");
  EXPECT_EQ(e.code, ErrorCode::BadField);
  EXPECT_EQ(e.game, 42);
  EXPECT_EQ(e.message,
            "'Z9' is not a point on this 9x9 board (GTP coordinates such as D4, no letter I)");
  EXPECT_EQ(refusal(Refused::NotYourTurn, "c-2", 1, {"white"}).code, ErrorCode::NotYourTurn);
  EXPECT_EQ(refusal(Refused::NotYourTurn, "c-2", 1, {"white"}).message, "it is white's move");
  EXPECT_EQ(refusal(Refused::TimeRanOut, "c-3", 1).code, ErrorCode::GameOver);
}

TEST(Refusals, EveryRefusalHasWordsAndACodeOfItsOwnKind) {
  for (int i = 0; i <= static_cast<int>(Refused::StillSuggesting); ++i) {
    const auto e = refusal(static_cast<Refused>(i), "c", 7);
    EXPECT_FALSE(e.message.empty() && static_cast<Refused>(i) != Refused::Illegal &&
                 static_cast<Refused>(i) != Refused::BadSeed &&
                 static_cast<Refused>(i) != Refused::ConditionalUnreadable &&
                 static_cast<Refused>(i) != Refused::ConditionalIllegal)
        << "refusal " << i << " has no words";
    EXPECT_NE(e.code, ErrorCode::Internal) << "refusal " << i;
  }
}

TEST(Refusals, MoreParticularsThanPlacesIsAFault) {
  EXPECT_THROW(refusal(Refused::Private, "c", 1, {"extra"}), std::logic_error);
}

}  // namespace
}  // namespace tengen
