"""quizhost: multiple-choice quizzes for Telegram and Discord groups."""
