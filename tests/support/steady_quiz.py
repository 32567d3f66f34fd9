"""A quiz whose options keep their order, so that two runs of it show the same buttons: the fair
scoring tests play it twice, with and without a setting, and compare every message."""

STEADY = """\
id: steady
title: Steady
description: Three questions whose options keep their order.
questions:
  - {id: s1, prompt: "2 + 2?", options: ["3", "4", "5"], answer: 1, shuffle: false}
  - {id: s2, prompt: "Capital of France?", options: ["Paris", "Rome"], answer: 0, shuffle: false}
  - {id: s3, prompt: "Largest planet?", options: ["Mars", "Venus", "Jupiter"], answer: 2, shuffle: false}
"""
RIGHT = ("B", "A", "C")  # each question's right letter
WRONG = ("A", "B", "A")  # a wrong letter of each
