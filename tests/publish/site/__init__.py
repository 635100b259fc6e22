"""The tests of whr.publish.site, a test module per module of the site."""
