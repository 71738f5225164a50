# Shared by every chart: terminal, fonts, colours. Drawn through
#   gnuplot -c plots/chart.gp DATADIR png|svg OUTFILE plots/NN-chart.gp
# (plain-text versions come from plots/textcharts.py, not gnuplot's dumb).
# One colour per kernel variant in every chart (prepare.py writes them):
#   stock #1b9e77, legacy #7570b3, block #d95f02, block-v0 #e7298a.
if (fmt eq 'png') set terminal pngcairo size 1000,620 font 'DejaVu Sans,10' noenhanced
if (fmt eq 'svg') set terminal svg size 1000,620 font 'DejaVu Sans,10' noenhanced
set output out
load datadir.'/vars.gp'
load datadir.'/series.gp'
set key outside right top
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
