"""What a network surface needs without a screen: the access token, the URL announced, the
connection guard and the one-line log the phone server and the hub share."""
