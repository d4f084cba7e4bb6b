"""zero-authored-data.md 3.3, the authored 110-card deck, copied verbatim once for the tests.

Format per card: id TITLE [B/D] [* = Spoiled Attack] bombing (M/H/D/V), strafe (s/-),
border (b/t). Kept apart from the data files so tests can check those files against it
and build decks without reading them.
"""

DECK_LISTING = """
001 IMS 1B/1D M-t | 002 IMS 1B/1D H-t | 003 IMS 1B/1D Dst | 004 IMS 1B/1D M-b | 005 IMS 1B/1D Hst
006 IMS 1B/1D M-t | 007 IMS 1B/2D Vst | 008 IMS 1B/2D M-b | 009 IMS 1B/2D Hst | 010 IMS 1B/2D D-t
011 IMS 1B/2D M-b | 012 IMS 2B/2D H-b | 013 IMS 2B/2D M-t | 014 IMS 2B/2D * Hst | 015 IMS 2B/2D * M-b
016 IMS 2B/3D Dsb | 017 IMS 2B/3D M-t | 018 IMS 2B/3D Hst | 019 IMS 2B/3D M-b | 020 IMS 3B/4D Hsb
021 IMS 3B/4D M-t | 022 IMS 3B/4D D-t | 023 OTS 2B/3D V-b | 024 OTS 2B/3D M-b | 025 OTS 2B/3D Hst
026 OTS 2B/3D M-t | 027 OTS 3B/4D Hsb | 028 OTS 3B/4D M-t | 029 MAN Dst | 030 MAN M-t
031 MAN Hsb | 032 MAN M-t | 033 MAN H-t | 034 MAN D-t | 035 MAN M-b
036 MAN Hst | 037 MAN M-t | 038 MAN Vst | 039 MAN M-b | 040 MAN * Hst
041 MAN * D-t | 042 MAN * Mst | 043 MAN * H-b | 044 MAN * M-t | 045 HL M-t
046 HL H-t | 047 HL Dsb | 048 HL * M-t | 049 HL * Hst | 050 HL * M-t
051 BR Dsb | 052 BR M-t | 053 BR Hst | 054 BR M-t | 055 BR H-b
056 BR V-t | 057 BR M-t | 058 BR Dst | 059 BR M-b | 060 BR Hst
061 BR * M-t | 062 BR * Hst | 063 SC M-b | 064 SC Dst | 065 SC H-t
066 SC M-b | 067 SC M-b | 068 SC H-t | 069 SC * Vst | 070 SC * M-b
071 TT Dsb | 072 TT H-t | 073 TT Mst | 074 TT M-b | 075 TT Hsb
076 TT M-t | 077 TT D-t | 078 TT H-b | 079 TT * M-b | 080 TT * Hst
081 VR M-t | 082 VR Dsb | 083 VR M-t | 084 VR Hst | 085 VR M-t
086 VR Vsb | 087 VR H-t | 088 VR M-t | 089 SS D-t | 090 SS M-b
091 SS Hst | 092 SS M-t | 093 SS Hst | 094 SS M-b | 095 IMM Dst
096 IMM M-t | 097 IMM Hst | 098 IMM M-b | 099 IMM H-t | 100 IMM M-t
101 FT D-t | 102 FT Vsb | 103 FT M-t | 104 FT Hst | 105 FT M-t
106 FT Hsb | 107 AP M-t | 108 AP Dst | 109 AP H-t | 110 AP M-b
"""  # noqa: E501
