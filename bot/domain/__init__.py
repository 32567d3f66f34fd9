"""The domain: quizzes, runs, answers, scoring, button tokens, review and schedule rules. Pure: no I/O,
no awaits, no clock of its own (time is passed in).
"""
