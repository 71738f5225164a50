# Every chart is drawn through this file, so that nothing of a results
# directory is ever parsed as a gnuplot command:
#   gnuplot -c plots/chart.gp DATADIR png|svg OUTFILE plots/NN-chart.gp
# gnuplot -c hands over its arguments as plain strings (ARG1..ARG4), which
# gnuplot never expands; plots/render.sh passes absolute paths, so no file
# name starts with '<' or '|' (gnuplot's pipes through a shell).
datadir = ARG1
fmt = ARG2
out = ARG3
load ARG4
