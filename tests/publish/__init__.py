"""The tests of whr.publish: the published tree, the archive, the site."""
