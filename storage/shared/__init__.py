"""What both stores share: the SQL of boards, outbox, reviews, schedules, statistics, updates and web
pages, and group commit.
"""
