(;GM[1]FF[4]CA[UTF-8]AP[tengen]SZ[19]KM[0])
