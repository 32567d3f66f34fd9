"""What a chat can ask, the same words on every platform: parsed, checked, answered with a Reply."""
