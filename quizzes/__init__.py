"""The quizzes quizhost ships: YAML files, their JSON Schema and the translators' notes (package data)."""
