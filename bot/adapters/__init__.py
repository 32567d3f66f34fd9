"""One module per platform, each filling the ChatAdapter port of bot.ports."""
