"""Quizzes as content: the quiz file format, the catalog of shipped and chat quizzes, validation,
export and imports from other tools.
"""
