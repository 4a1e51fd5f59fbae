"""What a network surface needs without a screen: the access token and the URL announced."""
