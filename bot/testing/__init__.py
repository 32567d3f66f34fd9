"""Fakes shipped with quizhost: the fake Telegram Bot API and Discord servers, a fake clock and a
recording chat adapter. The tests and `quizhost bench --platform` both use them, so they are part of
the package (an installed copy benches too); nothing in the product imports them."""
