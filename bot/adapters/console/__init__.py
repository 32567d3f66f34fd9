"""The terminal as a chat (`quizhost play`)."""
