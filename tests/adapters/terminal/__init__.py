"""The terminal chat of `quizhost play`, typed into as a person would."""
