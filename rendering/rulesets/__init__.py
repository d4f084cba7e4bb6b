"""Each ruleset's ``Presenter``: its images and the words for its options and reports."""
