"""Built-in algorithms written again through the public Python interface
(:class:`ccsim.CongestionControl`): RFC 5681 Reno (``reno``) and Linux's CUBIC (``cubic``).

They are the interface's proofs: each gives the same bytes as its built-in twin on the bench
dumbbells (tests/test_user_algorithms.py), and ``ccsim bench`` times them against the twin.
They are also a starting point to copy: ``protocol = "ccsim.reference.cubic:Cubic"``.
"""
