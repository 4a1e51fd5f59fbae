"""What a network surface needs without a screen: the access token, the URL announced, the
connection guard, the one-line log and the stop signals the phone server and the hub share."""
