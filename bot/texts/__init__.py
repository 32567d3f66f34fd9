"""Text in the chat's language: gettext catalogs, the neutral renderings of questions, reveals and
boards, right-to-left isolates, cuts where a reader sees a character end.
"""
